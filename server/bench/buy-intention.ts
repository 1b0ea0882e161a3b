export { runBuyIntention as run } from './market';
