import { customType } from 'drizzle-orm/pg-core';

/** Raw bytes (PostgreSQL bytea), as a Buffer both ways. */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  // The drivers hand back a plain Uint8Array; callers get a Buffer, as they sent.
  fromDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});
