import nodemailer from 'nodemailer';

/** The sendEmail node's way out; present only when SMTP_URL is configured. */
export interface EmailSender {
  send(email: { to: string; subject: string; body: string }): Promise<void>;
}

/** SMTP_URL (smtp:// or smtps://, with user and password when the server needs them) through nodemailer. */
export function createSmtpEmailSender(smtpUrl: string): EmailSender {
  const url = new URL(smtpUrl);
  const user = decodeURIComponent(url.username);
  // The account is usually the sender; otherwise ?from= in the URL, else a no-reply address of the SMTP host.
  const from = url.searchParams.get('from') ?? (user.includes('@') ? user : `no-reply@${url.hostname}`);
  url.searchParams.delete('from');
  const transport = nodemailer.createTransport(url.toString());
  return {
    async send(email) {
      await transport.sendMail({ from, to: email.to, subject: email.subject, text: email.body });
    },
  };
}
