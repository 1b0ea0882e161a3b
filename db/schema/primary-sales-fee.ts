/**
 * A primary sales fee as stored (events, shows, ticket options, partners; tickets keep theirs in
 * `data.primarySalesFee`): FIXED in major units of the currency, PERCENTAGE 0–100. Null: none set here.
 */
export interface StoredPrimarySalesFee {
  type: 'FIXED' | 'PERCENTAGE';
  value: number;
}
