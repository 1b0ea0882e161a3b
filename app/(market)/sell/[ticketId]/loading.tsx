export { CheckingWithPartner as default } from '@/components/market/checking';
