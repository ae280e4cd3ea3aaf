CREATE TABLE "visit_note_settings" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"note_style" text,
	"previsit_note" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "visit_note_settings" ADD CONSTRAINT "visit_note_settings_session_id_ambient_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."ambient_sessions"("id") ON DELETE cascade ON UPDATE no action;