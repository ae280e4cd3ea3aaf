import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Imported official code sets; rows are replaced wholesale by importCodesets so a new release is a re-run. */
export const codeIcd10 = pgTable('code_icd10', {
  /** Without the dot, as in the CMS codes file. */
  code: text('code').primaryKey(),
  description: text('description').notNull(),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
});

export const codeHccMap = pgTable(
  'code_hcc_map',
  {
    icd10Code: text('icd10_code').notNull(),
    /** Short model key: V28, V24, ESRD-V24, RX-V08, … */
    model: text('model').notNull(),
    modelName: text('model_name').notNull(),
    cc: text('cc').notNull(),
  },
  (t) => [primaryKey({ columns: [t.icd10Code, t.model, t.cc] }), index('code_hcc_map_model_idx').on(t.model, t.icd10Code)],
);

export const codeHccLabel = pgTable(
  'code_hcc_label',
  {
    model: text('model').notNull(),
    cc: text('cc').notNull(),
    label: text('label').notNull(),
    labelFile: text('label_file').notNull(),
  },
  (t) => [primaryKey({ columns: [t.model, t.cc] })],
);

export const codeRxnorm = pgTable(
  'code_rxnorm',
  {
    rxcui: text('rxcui').primaryKey(),
    name: text('name').notNull(),
    tty: text('tty').notNull(),
    doseForm: text('dose_form'),
  },
  (t) => [index('code_rxnorm_tty_idx').on(t.tty)],
);
