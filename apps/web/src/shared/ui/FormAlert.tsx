/** A red box for a form-level error (e.g. the server's answer to a sign-in), with an optional line of detail. */
export function FormAlert({ message, detail }: { message: string | null | undefined; detail?: string }) {
  if (!message) return null;
  return (
    <div role="alert" className="flex items-start gap-2 rounded-lg border border-rose-200 bg-rose-50 px-3 py-2.5 text-sm text-rose-700">
      <svg className="mt-0.5 size-4 shrink-0" viewBox="0 0 20 20" fill="currentColor" aria-hidden="true">
        <path
          fillRule="evenodd"
          d="M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0Zm-8-5a.75.75 0 0 1 .75.75v4.5a.75.75 0 0 1-1.5 0v-4.5A.75.75 0 0 1 10 5Zm0 10a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z"
          clipRule="evenodd"
        />
      </svg>
      {detail ? (
        <span>
          <span className="block font-medium">{message}</span>
          <span className="block">{detail}</span>
        </span>
      ) : (
        <span>{message}</span>
      )}
    </div>
  );
}
