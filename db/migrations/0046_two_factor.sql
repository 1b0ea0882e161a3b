-- Two-factor sign-in (TOTP) for everyone who signs in to the dashboard: the secret, when it was turned on, and the
-- step of the last code accepted (a code is good once). All null: off, as every member is until they enrol.
ALTER TABLE "staff_users" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "totp_enabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "totp_last_step" bigint;