import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { loadNodemailer } from '../lib/optional-packages.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  /** The Message-ID, `<id@host>`: the same id twice is one message to the reader's mail system. */
  messageId?: string;
}

/** Sends mail: through SMTP when configured, else as `.eml` files in DATA_DIR/outbox. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface MailerConfig {
  smtpUrl: string | undefined;
  mailFrom: string;
  dataDir: string;
}

/** The transport `make` returns, made when the first message goes (nodemailer is loaded then). */
function onFirstMessage(make: (m: typeof import('nodemailer')) => Transporter) {
  let made: Promise<Transporter> | undefined;
  let closed = false;
  return {
    get: (): Promise<Transporter> => {
      if (closed) return Promise.reject(new Error('the mailer is closed'));
      // A failed load is tried again by the next message, not remembered.
      made ??= loadNodemailer()
        .then(make)
        .catch((err: unknown) => {
          made = undefined;
          throw err;
        });
      return made;
    },
    close: () => {
      closed = true;
      void made?.then(
        (transport) => transport.close(),
        () => {},
      );
    },
  };
}

export const outboxDir = (dataDir: string): string => path.join(dataDir, 'outbox');

export function createMailer(config: MailerConfig): Mailer {
  return config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(config);
}

function smtpMailer(url: string, from: string): Mailer {
  const transport = onFirstMessage((m) =>
    m.createTransport({ url, pool: true, maxConnections: 2 }, { from }),
  );
  return {
    kind: 'smtp',
    async send(mail) {
      await (await transport.get()).sendMail(mail);
    },
    close: () => transport.close(),
  };
}

/** Each message a complete RFC 5322 file, renamed into place so a reader never sees half a file. */
function outboxMailer({ dataDir, mailFrom }: MailerConfig): Mailer {
  const dir = outboxDir(dataDir);
  const transport = onFirstMessage((m) =>
    m.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }, { from: mailFrom }),
  );
  return {
    kind: 'outbox',
    async send(mail) {
      const info = await (await transport.get()).sendMail(mail);
      if (!Buffer.isBuffer(info.message)) throw new Error('the outbox transport did not buffer the message');
      await mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      const partial = path.join(dir, `.${name}.part`);
      await writeFile(partial, info.message, { mode: 0o600 });
      await rename(partial, path.join(dir, name));
    },
    close: () => transport.close(),
  };
}
