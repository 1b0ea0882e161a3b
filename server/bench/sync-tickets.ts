export { runSync as run } from './tickets';
