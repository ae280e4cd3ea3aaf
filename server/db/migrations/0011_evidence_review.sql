ALTER TABLE "note_signoffs" ADD COLUMN "review" jsonb;--> statement-breakpoint
ALTER TABLE "session_content" ADD COLUMN "generated_summary" jsonb;--> statement-breakpoint
ALTER TABLE "session_content" ADD COLUMN "left_out" jsonb;