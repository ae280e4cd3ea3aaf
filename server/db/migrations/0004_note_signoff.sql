CREATE TABLE "note_section_versions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "note_section_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"session_id" uuid NOT NULL,
	"loinc_code" text NOT NULL,
	"before" text NOT NULL,
	"after" text NOT NULL,
	"provider_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "note_signoffs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "note_signoffs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"session_id" uuid NOT NULL,
	"action" text NOT NULL,
	"reason" text,
	"summary" jsonb,
	"provider_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "notify_note_signed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "session_content" ADD COLUMN "note_status" text DEFAULT 'draft' NOT NULL;--> statement-breakpoint
ALTER TABLE "session_content" ADD COLUMN "signed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "session_content" ADD COLUMN "signed_by" uuid;--> statement-breakpoint
ALTER TABLE "note_section_versions" ADD CONSTRAINT "note_section_versions_session_id_ambient_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."ambient_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_section_versions" ADD CONSTRAINT "note_section_versions_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_signoffs" ADD CONSTRAINT "note_signoffs_session_id_ambient_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."ambient_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_signoffs" ADD CONSTRAINT "note_signoffs_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "note_section_versions_session_idx" ON "note_section_versions" USING btree ("session_id","at");--> statement-breakpoint
CREATE INDEX "note_signoffs_session_idx" ON "note_signoffs" USING btree ("session_id","at");--> statement-breakpoint
ALTER TABLE "session_content" ADD CONSTRAINT "session_content_signed_by_providers_id_fk" FOREIGN KEY ("signed_by") REFERENCES "public"."providers"("id") ON DELETE set null ON UPDATE no action;