CREATE TABLE "stream_slots" (
	"slot_id" text NOT NULL,
	"cap_key" text NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stream_slots_slot_id_cap_key_pk" PRIMARY KEY("slot_id","cap_key")
);
--> statement-breakpoint
CREATE INDEX "stream_slots_cap_key_idx" ON "stream_slots" USING btree ("cap_key","expires_at");