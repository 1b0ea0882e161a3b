/**
 * Test mode: a live partner's test twin is a partner row of its own (partners module), so its
 * data space is isolated by the partner scoping every module already has. This module owns no table: it
 * wipes a test partner's data by calling each owner's wipe, in one transaction, in a foreign-key-safe order.
 */
export { wipeTestData } from './wipe';
