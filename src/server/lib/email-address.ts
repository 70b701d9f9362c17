/**
 * One mailbox address, as every form that takes an email checks it: a local part, an @ and a domain with a dot,
 * and nothing a mail header would read as a second address or a display name (commas, semicolons, angle brackets,
 * quotes, brackets, colons, backslashes), no whitespace and no control character. Lists like `x,bob@example.com`
 * would otherwise be stored as one address, counted as one by the limits, and reach bob.
 */
export const EMAIL_PATTERN =
  /^[^\s\p{Cc}@"<>(),;:\\[\]]+@[^\s\p{Cc}@"<>(),;:\\[\]]+\.[^\s\p{Cc}@"<>(),;:\\[\]]{2,}$/u;

export const isEmailAddress = (email: string) => EMAIL_PATTERN.test(email);
