export { runImport as run } from './tickets';
