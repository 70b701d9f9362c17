import { describe, expect, it } from 'vitest';
import { stripReply } from './strip-reply.ts';

const ANSWER = 'Resetting helped, thank you.\n\nThe display shows 21 °C again.';

describe('stripping what a mail client adds below an answer', () => {
  it.each([
    ['en (Gmail)', 'On Mon, 3 Jun 2024 at 10:00, Signpost <help@example.com> wrote:'],
    ['en (Apple Mail)', 'On 3 Jun 2024, at 10:00, Signpost <help@example.com> wrote:'],
    ['ru', '3 июня 2024 г., в 10:00, Signpost <help@example.com> написал(а):'],
    ['ru (Gmail)', 'пн, 3 июн. 2024 г. в 10:00, Signpost <help@example.com>:'],
    ['ru (Yandex)', '03.06.2024, 10:00, "Signpost" <help@example.com>:'],
    ['pt-BR', 'Em seg., 3 de jun. de 2024 às 10:00, Signpost <help@example.com> escreveu:'],
    ['it', 'Il giorno lun 3 giu 2024 alle ore 10:00 Signpost <help@example.com> ha scritto:'],
    ['sk', 'Dňa po 3. 6. 2024 o 10:00 Signpost <help@example.com> napísal(a):'],
    ['de', 'Am Mo., 3. Juni 2024 um 10:00 Uhr schrieb Signpost <help@example.com>:'],
    ['fr', 'Le lun. 3 juin 2024 à 10:00, Signpost <help@example.com> a écrit :'],
    ['es', 'El lun, 3 jun 2024 a las 10:00, Signpost (<help@example.com>) escribió:'],
  ])('cuts at the attribution line: %s', (_language, attribution) => {
    const mail = `${ANSWER}\n\n${attribution}\n\n> Dana Desk replied to your request:\n> Try a reset.\n`;
    expect(stripReply(mail)).toBe(ANSWER);
  });

  it('cuts at an attribution the client wrapped onto two lines, keeping the line above it', () => {
    const mail = `${ANSWER}\n\nOn Mon, 3 Jun 2024 at 10:00, Signpost Help Centre\n<help@example.com> wrote:\n> Try a reset.`;
    expect(stripReply(mail)).toBe(ANSWER);
    const russian = `Спасибо, помогло.\n3 июня 2024 г., в 10:00, Signpost <help@example.com> написал(а):\n> Попробуйте сбросить.`;
    expect(stripReply(russian)).toBe('Спасибо, помогло.');
  });

  it("cuts at Outlook's separator and at its header block", () => {
    expect(stripReply(`${ANSWER}\n\n-----Original Message-----\nFrom: Signpost\nTry a reset.`)).toBe(ANSWER);
    expect(stripReply(`${ANSWER}\n\n-----Исходное сообщение-----\nОт: Signpost`)).toBe(ANSWER);
    const block = `${ANSWER}\n\nFrom: Signpost <help@example.com>\nSent: Monday, June 3, 2024 10:00 AM\nTo: Ann Lee\nSubject: Re: Thermostat\n\nTry a reset.`;
    expect(stripReply(block)).toBe(ANSWER);
    const german = `${ANSWER}\n\nVon: Signpost <help@example.com>\nGesendet: Montag, 3. Juni 2024 10:00\nAn: Ann Lee`;
    expect(stripReply(german)).toBe(ANSWER);
  });

  it('drops the signature after "-- " and quoted lines between answers, and keeps a "From:" the customer wrote', () => {
    expect(stripReply(`${ANSWER}\n\n-- \nAnn Lee\nACME Heating`)).toBe(ANSWER);
    expect(stripReply(`${ANSWER}\n--\nAnn`)).toBe(ANSWER);
    const inline = '> Which model is it?\nThe T-1000.\n> Since when?\nSince Monday.';
    expect(stripReply(inline)).toBe('The T-1000.\nSince Monday.');
    expect(stripReply('From: my phone, sorry for typos.\nIt works now.')).toBe(
      'From: my phone, sorry for typos.\nIt works now.',
    );
  });

  it('keeps an answer with nothing below it as written, line breaks included', () => {
    expect(stripReply(`  ${ANSWER}\r\n\r\n\r\n\r\nAnn  \r\n`)).toBe(`${ANSWER}\n\nAnn`);
    expect(stripReply('> only a quote')).toBe('');
  });
});
