/** Visit purpose (our visit_type) → the LOINC document type of the note; a progress note otherwise. */
const DOCUMENT_TYPES: Record<string, [string, string]> = {
  NEW_PATIENT: ['34117-2', 'History and physical note'],
  ADMISSION: ['34117-2', 'History and physical note'],
  WELLNESS: ['34117-2', 'History and physical note'],
  ANNUAL_WELLNESS_VISIT: ['34117-2', 'History and physical note'],
  WELL_CHILD: ['34117-2', 'History and physical note'],
  SPORTS_PHYSICAL: ['34117-2', 'History and physical note'],
  PRE_OP: ['34117-2', 'History and physical note'],
  CONSULT: ['11488-4', 'Consult note'],
  SECOND_OPINION: ['11488-4', 'Consult note'],
  ED: ['34111-5', 'Emergency department note'],
  PROCEDURE: ['28570-0', 'Procedure note'],
  DISCHARGE: ['18842-5', 'Discharge summary'],
  TRANSITION_OF_CARE: ['18761-7', 'Transfer summary note'],
};
const PROGRESS_NOTE: [string, string] = ['11506-3', 'Progress note'];

/** The LOINC document type (code, display) of a note written for a visit of this purpose. */
export function mapDocumentType(visitType: string | undefined): [string, string] {
  return DOCUMENT_TYPES[visitType ?? ''] ?? PROGRESS_NOTE;
}
