ALTER TABLE "ambient_sessions" ADD COLUMN "finalising_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ambient_sessions" ADD COLUMN "finalising_by" text;