ALTER TABLE "staff_invitations" DROP CONSTRAINT "staff_invitations_role_check";--> statement-breakpoint
ALTER TABLE "staff_users" DROP CONSTRAINT "staff_users_role_check";--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD COLUMN "partner_id" text;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "partner_id" text;--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_users_partner_idx" ON "staff_users" USING btree ("partner_id");--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_role_check" CHECK (("staff_invitations"."partner_id" is null and "staff_invitations"."role" in ('admin', 'finance', 'support', 'viewer')) or ("staff_invitations"."partner_id" is not null and "staff_invitations"."role" in ('owner', 'developer', 'viewer')));--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_role_check" CHECK (("staff_users"."partner_id" is null and "staff_users"."role" in ('admin', 'finance', 'support', 'viewer')) or ("staff_users"."partner_id" is not null and "staff_users"."role" in ('owner', 'developer', 'viewer')));