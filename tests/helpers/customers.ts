// Customer and device rows for the customer integration tests (customers, allocation, crm).
import * as v from 'valibot';
import { expect } from 'vitest';
import { errorBodySchema } from '../../src/shared/schemas/common.js';

export { customerRow, deviceRow, insertCustomer } from './customer-rows.js';

/** The error body's Content, checked against the error shape. */
export async function errorOf(res: Response) {
  const body = await res.json();
  expect(v.safeParse(errorBodySchema, body).success, JSON.stringify(body)).toBe(true);
  return body.Content as { Message: string; Code: string; Errors?: Record<string, string> };
}

/** The JSON body of a 2xx answer (fails the test with the body otherwise). */
export async function ok<T>(res: Response, status = 200): Promise<T> {
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body as T;
}
