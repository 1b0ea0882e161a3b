-- Staff roles with least privilege: admin, finance, support, viewer (server/lib/staff-roles.ts). The members and
-- open invitations of the old `staff` role become `support` (they kept fans, orders and tickets moving; they no
-- longer create partners, keys or staff), then only the four roles are accepted, `viewer` by default.
UPDATE "staff_users" SET "role" = 'support' WHERE "role" NOT IN ('admin', 'finance', 'support', 'viewer');--> statement-breakpoint
UPDATE "staff_invitations" SET "role" = 'support' WHERE "role" NOT IN ('admin', 'finance', 'support', 'viewer');--> statement-breakpoint
ALTER TABLE "staff_invitations" ALTER COLUMN "role" SET DEFAULT 'viewer';--> statement-breakpoint
ALTER TABLE "staff_users" ALTER COLUMN "role" SET DEFAULT 'viewer';--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_role_check" CHECK ("staff_invitations"."role" in ('admin', 'finance', 'support', 'viewer'));--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_role_check" CHECK ("staff_users"."role" in ('admin', 'finance', 'support', 'viewer'));