import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000ErrorReports } from './Migration20261122000000ErrorReports';
import { Migration20261122010000Levels } from './Migration20261122010000Levels';
import { Migration20261122020000Content } from './Migration20261122020000Content';
import { Migration20261122030000ContentImportData } from './Migration20261122030000ContentImportData';
import { Migration20261122040000Accounts } from './Migration20261122040000Accounts';
import { Migration20261122050000MailOutbox } from './Migration20261122050000MailOutbox';
import { Migration20261123000000CreditsAndBilling } from './Migration20261123000000CreditsAndBilling';
import { Migration20261123010000ImageJobs } from './Migration20261123010000ImageJobs';
import { Migration20261123191629GuideReports } from './Migration20261123191629GuideReports';
import { Migration20261125000000AdminAudit } from './Migration20261125000000AdminAudit';
import { Migration20261125230000B_MoneyEvents } from './Migration20261125230000B_MoneyEvents';
import { Migration20261125230000aTrialClaims } from './Migration20261125230000aTrialClaims';
import { Migration20261126000000Progress } from './Migration20261126000000Progress';
import { Migration20261126020000Search } from './Migration20261126020000Search';
import { Migration20261126120000GuideInsights } from './Migration20261126120000GuideInsights';
import { Migration20261128160000ImageJobOptions } from './Migration20261128160000ImageJobOptions';
import { Migration20261128160100MailOutboxSends } from './Migration20261128160100MailOutboxSends';
import { Migration20261128210000MoneyAndAccounts } from './Migration20261128210000MoneyAndAccounts';
import { Migration20261128195000ProgressRevisions } from './Migration20261128195000ProgressRevisions';
import { Migration20261128220000GuidePictures } from './Migration20261128220000GuidePictures';
import { Migration20261128220100LadderStops } from './Migration20261128220100LadderStops';

/**
 * Every migration, in order. Append new ones (npm run migration:create writes the file); never edit
 * one that has been applied. An explicit list works the same from sources, the build and jest.
 */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000000ErrorReports', class: Migration20261122000000ErrorReports },
  { name: 'Migration20261122010000Levels', class: Migration20261122010000Levels },
  { name: 'Migration20261122020000Content', class: Migration20261122020000Content },
  { name: 'Migration20261122030000ContentImportData', class: Migration20261122030000ContentImportData },
  { name: 'Migration20261122040000Accounts', class: Migration20261122040000Accounts },
  { name: 'Migration20261122050000MailOutbox', class: Migration20261122050000MailOutbox },
  { name: 'Migration20261123000000CreditsAndBilling', class: Migration20261123000000CreditsAndBilling },
  { name: 'Migration20261123010000ImageJobs', class: Migration20261123010000ImageJobs },
  { name: 'Migration20261123191629GuideReports', class: Migration20261123191629GuideReports },
  { name: 'Migration20261125000000AdminAudit', class: Migration20261125000000AdminAudit },
  { name: 'Migration20261125230000B_MoneyEvents', class: Migration20261125230000B_MoneyEvents },
  { name: 'Migration20261125230000aTrialClaims', class: Migration20261125230000aTrialClaims },
  { name: 'Migration20261126000000Progress', class: Migration20261126000000Progress },
  { name: 'Migration20261126020000Search', class: Migration20261126020000Search },
  { name: 'Migration20261126120000GuideInsights', class: Migration20261126120000GuideInsights },
  { name: 'Migration20261128160000ImageJobOptions', class: Migration20261128160000ImageJobOptions },
  { name: 'Migration20261128160100MailOutboxSends', class: Migration20261128160100MailOutboxSends },
  { name: 'Migration20261128195000ProgressRevisions', class: Migration20261128195000ProgressRevisions },
  { name: 'Migration20261128210000MoneyAndAccounts', class: Migration20261128210000MoneyAndAccounts },
  { name: 'Migration20261128220000GuidePictures', class: Migration20261128220000GuidePictures },
  { name: 'Migration20261128220100LadderStops', class: Migration20261128220100LadderStops },
];
