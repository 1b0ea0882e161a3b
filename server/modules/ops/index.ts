/**
 * Staff reporting: read-only views over the market (a documented exception to "a table is read only by
 * its owner": it reads other modules' tables in SQL and never writes; every action goes through the
 * owning module).
 */
export * from './period';
export * from './reconciliation';
export * from './money-exports';
