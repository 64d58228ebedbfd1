/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the landing's Enterprise "Hablemos" writes to. */
  readonly VITE_CONTACT_EMAIL?: string;
}
