/** Ops' public face: the admin screens' reads as a service. No Nest wiring. */
export { OpsService } from './application/ops.service';