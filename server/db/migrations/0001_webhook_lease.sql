ALTER TABLE "webhook_attempts" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "sequence_start" integer DEFAULT 0 NOT NULL;