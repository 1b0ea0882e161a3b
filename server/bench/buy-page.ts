export { runBuyPage as run } from './market';
