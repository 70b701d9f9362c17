import type { Language } from '../../../shared/constants.ts';

/** Per-field messages of the request form, in the interface language (the branding's). */
const MESSAGES = {
  en: {
    required: 'This field is required',
    invalidEmail: 'Enter a valid email address',
    tooLong: 'This is too long (at most {{max}} characters)',
    fileUnavailable: 'File {{id}} is not one of your uploads, or was already sent',
    tooManyFiles: 'Attach at most {{max}} files',
    captchaRequired: 'Confirm that you are not a robot',
    captchaInvalid: 'The check that you are not a robot failed; try again',
    captchaUsed: 'This check was already used; try again',
    invalidChannel: 'Only requests from the web are accepted',
  },
  ru: {
    required: 'Это поле обязательно',
    invalidEmail: 'Введите правильный адрес электронной почты',
    tooLong: 'Слишком длинно (не больше {{max}} символов)',
    fileUnavailable: 'Файл {{id}} не из ваших загрузок или уже отправлен',
    tooManyFiles: 'Можно приложить не больше {{max}} файлов',
    captchaRequired: 'Подтвердите, что вы не робот',
    captchaInvalid: 'Проверка на робота не пройдена, попробуйте ещё раз',
    captchaUsed: 'Эта проверка уже использована, попробуйте ещё раз',
    invalidChannel: 'Принимаются только обращения с сайта',
  },
  'pt-BR': {
    required: 'Este campo é obrigatório',
    invalidEmail: 'Informe um endereço de e-mail válido',
    tooLong: 'Texto longo demais (no máximo {{max}} caracteres)',
    fileUnavailable: 'O arquivo {{id}} não é um dos seus envios ou já foi enviado',
    tooManyFiles: 'Anexe no máximo {{max}} arquivos',
    captchaRequired: 'Confirme que você não é um robô',
    captchaInvalid: 'A verificação de que você não é um robô falhou; tente novamente',
    captchaUsed: 'Esta verificação já foi usada; tente novamente',
    invalidChannel: 'Somente solicitações pela web são aceitas',
  },
  it: {
    required: 'Questo campo è obbligatorio',
    invalidEmail: 'Inserisca un indirizzo email valido',
    tooLong: 'Testo troppo lungo (al massimo {{max}} caratteri)',
    fileUnavailable: 'Il file {{id}} non è tra i suoi caricamenti o è già stato inviato',
    tooManyFiles: 'Alleghi al massimo {{max}} file',
    captchaRequired: 'Confermi di non essere un robot',
    captchaInvalid: 'La verifica anti-robot non è riuscita; riprovi',
    captchaUsed: 'Questa verifica è già stata usata; riprovi',
    invalidChannel: 'Sono accettate solo richieste dal web',
  },
  sk: {
    required: 'Toto pole je povinné',
    invalidEmail: 'Zadajte platnú e-mailovú adresu',
    tooLong: 'Text je príliš dlhý (najviac {{max}} znakov)',
    fileUnavailable: 'Súbor {{id}} nie je medzi vašimi nahranými súbormi alebo už bol odoslaný',
    tooManyFiles: 'Priložte najviac {{max}} súborov',
    captchaRequired: 'Potvrďte, že nie ste robot',
    captchaInvalid: 'Overenie, že nie ste robot, zlyhalo; skúste to znova',
    captchaUsed: 'Toto overenie už bolo použité; skúste to znova',
    invalidChannel: 'Prijímame len žiadosti z webu',
  },
} satisfies Record<Language, Record<string, string>>;

export type MessageKey = keyof (typeof MESSAGES)['en'];

export function message(lang: Language, key: MessageKey, vars: Record<string, string | number> = {}): string {
  const template = (MESSAGES[lang] ?? MESSAGES.en)[key];
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}
