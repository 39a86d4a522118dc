// Who is calling: the user behind an API key (or an IdP token). Every service method that reads
// or changes project data takes one.

export interface Actor {
  userId: string;
  email: string;
  /** The API key used, when the caller authenticated with one. */
  keyId?: string;
}
