CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "provider_partners" ADD COLUMN "disabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A provider disabled before links had their own flag stays disabled on every link.
UPDATE "provider_partners" SET "disabled" = true WHERE "provider_id" IN (SELECT "id" FROM "providers" WHERE "disabled");--> statement-breakpoint
-- Clinician users created before users were bound to one link get the link they were using (the only one, or the one last logged in through).
UPDATE "users" u SET "partner_id" = (SELECT pp."partner_id" FROM "provider_partners" pp WHERE pp."provider_id" = u."provider_id" ORDER BY pp."last_login_at" DESC NULLS LAST, pp."created_at" DESC LIMIT 1) WHERE u."role" = 'clinician' AND u."partner_id" IS NULL AND u."provider_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "providers" DROP COLUMN "disabled";
