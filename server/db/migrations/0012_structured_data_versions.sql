CREATE TABLE "structured_data_versions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "structured_data_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"session_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"position" integer NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"provider_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "structured_data_versions" ADD CONSTRAINT "structured_data_versions_session_id_ambient_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."ambient_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "structured_data_versions" ADD CONSTRAINT "structured_data_versions_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "structured_data_versions_session_idx" ON "structured_data_versions" USING btree ("session_id","at");