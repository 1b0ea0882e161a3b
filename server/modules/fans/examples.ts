/** Worked example of GET /v1/auth/oneTimeToken; server/http/examples.test.ts sends it to the real handler. */
export const oneTimeTokenExample = {
  query: { user: 'ana.garcia@example.com', method: 'email' },
  response: 'ott_q7ZK3vYx0sN1pD8mRf2LhWc5TgB9uJeA4oQy6iXnVbEk3Rw9Tz2LmQ8vYc1Hx5JaG',
};
