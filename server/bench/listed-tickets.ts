export { runListedTickets as run } from './market';
