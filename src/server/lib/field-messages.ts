import type { FieldError } from '../../shared/api/common.ts';
import type { Language } from '../../shared/constants.ts';
import type { Executor } from '../db/database.ts';
import { siteLanguage } from '../languages/index.ts';

/**
 * Per-field messages of the visitor's forms (the request form, the portal's account and request pages), in the
 * interface language (the branding's).
 */
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
    passwordTooShort: 'Use at least {{min}} characters',
    emailDomain: 'Use an address at {{domains}}',
    emailTaken: 'Another account uses this email',
    linkExpired: 'The link has expired or was already used; ask for a new one',
    currentPasswordNeeded: 'Enter your current password to make this change',
    wrongPassword: 'This is not your password',
    choosePasswordToConfirm:
      'To confirm {{email}} here, give your name and choose a password for its account: they replace the ones set before, and every device is signed out',
    statusNotAllowed: 'This request cannot be moved to that status now',
    changedMeanwhile: 'The request changed meanwhile; reload the page',
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
    passwordTooShort: 'Не короче {{min}} символов',
    emailDomain: 'Нужен адрес в домене {{domains}}',
    emailTaken: 'Этот адрес уже занят другой учётной записью',
    linkExpired: 'Ссылка устарела или уже использована; запросите новую',
    currentPasswordNeeded: 'Введите текущий пароль, чтобы сделать это изменение',
    wrongPassword: 'Это не ваш пароль',
    choosePasswordToConfirm:
      'Чтобы подтвердить {{email}} здесь, укажите своё имя и задайте пароль учётной записи: они заменят прежние, и все устройства выйдут из неё',
    statusNotAllowed: 'Сейчас обращение нельзя перевести в этот статус',
    changedMeanwhile: 'Обращение тем временем изменилось; обновите страницу',
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
    passwordTooShort: 'Use pelo menos {{min}} caracteres',
    emailDomain: 'Use um endereço em {{domains}}',
    emailTaken: 'Outra conta já usa este e-mail',
    linkExpired: 'O link expirou ou já foi usado; peça um novo',
    currentPasswordNeeded: 'Informe sua senha atual para fazer esta alteração',
    wrongPassword: 'Esta não é a sua senha',
    choosePasswordToConfirm:
      'Para confirmar {{email}} aqui, informe seu nome e escolha uma senha para a conta: eles substituem os anteriores e encerram a sessão em todos os dispositivos',
    statusNotAllowed: 'Esta solicitação não pode ir para esse status agora',
    changedMeanwhile: 'A solicitação mudou nesse meio-tempo; recarregue a página',
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
    passwordTooShort: 'Usi almeno {{min}} caratteri',
    emailDomain: 'Usi un indirizzo di {{domains}}',
    emailTaken: 'Un altro account usa già questa email',
    linkExpired: 'Il link è scaduto o è già stato usato; ne richieda uno nuovo',
    currentPasswordNeeded: 'Inserisca la password attuale per questa modifica',
    wrongPassword: 'Questa non è la sua password',
    choosePasswordToConfirm:
      "Per confermare {{email}} qui, indichi il suo nome e scelga una password per l'account: sostituiscono quelli di prima, e ogni dispositivo viene disconnesso",
    statusNotAllowed: 'Ora questa richiesta non può passare a quello stato',
    changedMeanwhile: 'La richiesta è cambiata nel frattempo; ricarichi la pagina',
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
    passwordTooShort: 'Použite aspoň {{min}} znakov',
    emailDomain: 'Použite adresu v doméne {{domains}}',
    emailTaken: 'Tento e-mail už používa iný účet',
    linkExpired: 'Odkaz vypršal alebo už bol použitý; požiadajte o nový',
    currentPasswordNeeded: 'Na túto zmenu zadajte svoje súčasné heslo',
    wrongPassword: 'Toto nie je vaše heslo',
    choosePasswordToConfirm:
      'Ak chcete potvrdiť {{email}} tu, uveďte svoje meno a zvoľte si heslo k účtu: nahradia doterajšie a odhlásia sa všetky zariadenia',
    statusNotAllowed: 'Túto žiadosť teraz nemožno presunúť do tohto stavu',
    changedMeanwhile: 'Žiadosť sa medzitým zmenila; načítajte stránku znova',
  },
} satisfies Record<Language, Record<string, string>>;

export type MessageKey = keyof (typeof MESSAGES)['en'];

export function message(lang: Language, key: MessageKey, vars: Record<string, string | number> = {}): string {
  const template = (MESSAGES[lang] ?? MESSAGES.en)[key];
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}

/** A problem with one field, named by its message's key. */
export interface FieldProblem {
  field: string;
  key: MessageKey;
  vars?: Record<string, string | number>;
}

/** The field errors of these problems in the site's interface language. */
export async function inSiteLanguage(db: Executor, problems: FieldProblem[]): Promise<FieldError[]> {
  const lang = await siteLanguage(db);
  return problems.map(({ field, key, vars }) => ({ field, message: message(lang, key, vars) }));
}
