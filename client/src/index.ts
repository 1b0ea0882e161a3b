/**
 * `@encore/partner-client`: Encore's partner API, typed from its OpenAPI document (README.md is the quick
 * start). The package's face; its other files are its own.
 */
export { EncoreClient, type ClientOptions, type RetryEvent } from './client.js';
export { EncoreApiError, EncoreConnectionError } from './errors.js';
export type { RetryPolicy } from './retry.js';
export type {
  Answer,
  CallInit,
  CallOptions,
  ErrorCode,
  ErrorDetail,
  HttpMethod,
  PathsFor,
  ResponseData,
} from './types.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifiedWebhook,
  type VerifyWebhookInput,
  type WebhookAction,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookOf,
} from './webhooks.js';
export type { components, operations, paths, webhooks } from './generated/encore-api.js';
