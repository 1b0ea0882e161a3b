export * from './partners';
export * from './staff';
export * from './platform';
export * from './webhooks';
export * from './integrations';
export * from './catalog';
export * from './tickets';
export * from './payments';
