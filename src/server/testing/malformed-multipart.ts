/**
 * Multipart bodies a broken or hostile client sends, each as `[name, content type, body]`: every upload route must
 * refuse them with a 400 naming its file field, never a 500.
 */
export function malformedMultipart(field: string): [string, string, string][] {
  const boundary = 'signpost-malformed';
  const part =
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.txt"\r\n` +
    'Content-Type: text/plain\r\n\r\nsome bytes of the file';
  const whole = `${part}\r\n--${boundary}--\r\n`;
  const type = `multipart/form-data; boundary=${boundary}`;
  return [
    ['cut off in the middle of a file', type, part],
    ['cut off in the part headers', type, whole.slice(0, 40)],
    ['without a boundary parameter', 'multipart/form-data', whole],
    ['with an empty boundary', 'multipart/form-data; boundary=', whole],
    ['with a boundary the body does not use', 'multipart/form-data; boundary=another-one', whole],
    ['that is not multipart at all', type, 'just some text'],
  ];
}
