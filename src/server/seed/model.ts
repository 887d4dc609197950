// Shared in-memory model of the demo generator: the few facts later phases need about earlier
// rows (customers, staff, lone workers and their devices). Kept compact so that scale 10 fits.
import type { RoleName } from '../../shared/permissions.js';
import type { Address } from './gen.js';
import type { Town } from './data.js';

export type StaffRef = { id: string; firstName: string; lastName: string; email: string; roles: RoleName[]; demo: boolean };

export type DeviceRef = { id: string; type: number; serial: string; phone: string | null; battery: number | null };

export type Team = {
  name: string;
  plan: {
    Name: string;
    Instructions: { Instruction: string; Contact: { InstructionContactName: string; CountryCode: string; Value: string } }[];
  };
  isDefaultPlan: boolean;
  special: string[];
  duressActive: boolean;
  duress: { Monitor: string; CallPolice: string };
};

export type CustomerRef = {
  idx: number;
  id: string;
  tenantId: string;
  name: string;
  tier: number | null;
  status: number | null;
  internal: boolean;
  town: Town;
  address: Address;
  sector: number;
  domain: string;
  weight: number;
  /** device types and how many devices of each sit in this customer's account */
  plan: [number, number][];
  orders: string[];
  services: { nationalResponse: number; globalResponse: number; eurowatch: number; translationServices: number };
  teams: Team[];
  safetyLead: { name: string; email: string; phone: string };
  /** lone workers of this customer: [start, end) in the workers array */
  workerStart: number;
  workerEnd: number;
  createdMs: number;
};

export type WorkerRef = {
  id: string;
  pidx: number;
  cust: number;
  firstName: string;
  lastName: string;
  email: string;
  team: number;
  devices: DeviceRef[] | null;
};
