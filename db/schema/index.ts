export * from './partners';
export * from './staff';
export * from './platform';
