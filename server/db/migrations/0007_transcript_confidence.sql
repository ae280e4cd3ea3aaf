ALTER TABLE "transcript_entries" ADD COLUMN "confidence" real;--> statement-breakpoint
ALTER TABLE "transcript_entries" ADD COLUMN "words" jsonb;