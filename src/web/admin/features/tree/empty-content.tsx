/**
 * What an empty help centre shows in place of the tree: where to begin, in the admin or on the server. Visitors meet
 * an empty page until an article is published, so this says how to get one there.
 */
export function EmptyContent() {
  return (
    <section className="tree-empty" aria-labelledby="tree-empty-heading">
      <h3 id="tree-empty-heading">The help centre is empty</h3>
      <p>Visitors see an empty page until an article is published. To begin:</p>
      <ol>
        <li>
          Add a section with <strong>New section</strong> above (categories inside it are optional).
        </li>
        <li>
          Select the section and write an article with <strong>New article</strong>, then publish it.
        </li>
        <li>
          Or, on the server, import a folder of Markdown files: <code>signpost import DIR</code>
        </li>
      </ol>
    </section>
  );
}
