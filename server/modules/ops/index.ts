/**
 * Staff reporting over the whole market (overview, search, reconciliation, exports). A documented
 * exception to "a table is read only by its owner": this module only READS other modules' tables in SQL
 * (aggregates over hundreds of thousands of rows cannot go through the owners one row at a time) and
 * never writes; every action goes through the owning module.
 */
export * from './overview';
