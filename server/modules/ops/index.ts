/**
 * Ops: read-only staff reporting (support search, overview, money reconciliation, exports). A documented
 * exception to "a table is read only by its owner": it READS other modules' tables in SQL (joins no
 * owner's function could make one row at a time) and never writes; every action goes through the owner.
 */
export * from './overview';
export * from './search';
export * from './period';
export * from './reconciliation';
export * from './money-exports';
