import { z } from 'zod';

/**
 * Wire shapes of the fans module. A fan is known by e-mail only (no password); the address is stored
 * lower-cased. `method` says how the partner vouches for the fan; the spec shows no values, so Encore
 * accepts `email` (the default) and refuses any other with a 400 naming `method`.
 */
export const ONE_TIME_TOKEN_METHODS = ['email'] as const;
export type OneTimeTokenMethod = (typeof ONE_TIME_TOKEN_METHODS)[number];

/** RFC 5321 caps an address at 254 characters. */
export const fanEmail = z
  .email({ error: 'must be an e-mail address' })
  .max(254, { error: 'must be at most 254 characters' });

export const oneTimeTokenMethod = z.enum(ONE_TIME_TOKEN_METHODS, {
  error: 'must be email (the only sign-in method Encore offers)',
});

/**
 * A one-time token as Encore issues it: `ott_`, 43 base64url characters (256 random bits) and a 22-character
 * tag (128 bits of an HMAC of them under a key of the deployment), so a guess is told from a token Encore
 * issued without reading the database. Opaque to partners.
 */
export const ONE_TIME_TOKEN_PATTERN = /^ott_[A-Za-z0-9_-]{65}$/;

export const oneTimeTokenQuery = z.object({
  user: fanEmail.meta({ description: "The fan's e-mail address (at most 254 characters); matched in any case." }),
  method: oneTimeTokenMethod
    .optional()
    .meta({ description: 'How you vouch for the fan. Only `email` (the default) is accepted.' }),
});

export const oneTimeTokenResponse = z
  .string()
  .regex(ONE_TIME_TOKEN_PATTERN)
  .meta({ description: 'The one-time token, opaque: `ott_` and 65 URL-safe characters.' });
