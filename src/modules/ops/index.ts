/** Ops' public face: the admin screens' reads as a service. No Nest wiring. */
export { OpsService } from './application/ops.service';
// The queue dashboard's mount moves into this module (issue 34); until then the SSR hooks mount it.
export { BullBoardQueueDashboard } from './adapters/http/bull-board.queue-dashboard';
