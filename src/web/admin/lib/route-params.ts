/** An id from the address, or null when it is not a positive whole number. */
export const positiveId = (text: string | null | undefined) => {
  const id = Number(text);
  return Number.isInteger(id) && id > 0 ? id : null;
};
