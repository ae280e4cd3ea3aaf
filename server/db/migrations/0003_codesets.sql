CREATE TABLE "code_hcc_label" (
	"model" text NOT NULL,
	"cc" text NOT NULL,
	"label" text NOT NULL,
	"label_file" text NOT NULL,
	CONSTRAINT "code_hcc_label_model_cc_pk" PRIMARY KEY("model","cc")
);
--> statement-breakpoint
CREATE TABLE "code_hcc_map" (
	"icd10_code" text NOT NULL,
	"model" text NOT NULL,
	"model_name" text NOT NULL,
	"cc" text NOT NULL,
	CONSTRAINT "code_hcc_map_icd10_code_model_cc_pk" PRIMARY KEY("icd10_code","model","cc")
);
--> statement-breakpoint
CREATE TABLE "code_icd10" (
	"code" text PRIMARY KEY NOT NULL,
	"description" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "code_rxnorm" (
	"rxcui" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"tty" text NOT NULL,
	"dose_form" text
);
--> statement-breakpoint
CREATE INDEX "code_hcc_map_model_idx" ON "code_hcc_map" USING btree ("model","icd10_code");--> statement-breakpoint
CREATE INDEX "code_rxnorm_tty_idx" ON "code_rxnorm" USING btree ("tty");