-- Issue 43: when the call holding an Idempotency-Key's claim committed an effect (set in that transaction). A claim
-- left in_progress with it set ran its effect and lost its answer: only a route safe to repeat runs again for it.
ALTER TABLE "idempotency_keys" ADD COLUMN "effect_at" timestamp with time zone;
