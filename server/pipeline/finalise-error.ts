/** A failure with the error_code the session ends with once retries are exhausted. */
export class FinaliseError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
