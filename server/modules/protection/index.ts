/**
 * Ticket protection (issue 13, first part): when a ticket's code unlocks, and the moving code of the
 * secure view. Owns no table yet (staff switches and the reissue state come next).
 */
export * from './unlock';
