/**
 * Repairs to GraphiQL 4's markup that axe-core flags (the explorer passes axe like every
 * dashboard page), kept up as GraphiQL renders:
 *
 * - CodeMirror's hidden <textarea> (where the keyboard types) has no label: each gets the name of
 *   its editor (query, variables, headers, response);
 * - a tab is an <li role="tab"> holding two buttons (select, close): interactive controls nested
 *   in a control. The role moves to the select button (the <li> becomes presentation), which is
 *   what a screen reader should announce as the tab.
 */

/** The editor each CodeMirror belongs to, by its container (GraphiQL's class names). */
function editorName(textarea: HTMLTextAreaElement): string | null {
  if (textarea.closest('.graphiql-query-editor')) return 'Query editor';
  if (textarea.closest('.result-window')) return 'Response';
  const editor = textarea.closest('.graphiql-editor-tool .graphiql-editor');
  if (editor?.parentElement) {
    // GraphiQL renders the variables editor, then the headers editor, in its tools section
    const editors = [...editor.parentElement.querySelectorAll(':scope > .graphiql-editor')];
    return editors.indexOf(editor) === 0 ? 'Variables editor' : 'Headers editor';
  }
  return null;
}

function setIfDifferent(element: Element, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

function repair(root: HTMLElement): void {
  for (const textarea of root.querySelectorAll<HTMLTextAreaElement>('.CodeMirror textarea')) {
    const name = editorName(textarea);
    if (name) setIfDifferent(textarea, 'aria-label', name);
  }
  for (const tab of root.querySelectorAll('li.graphiql-tab')) {
    const selected = tab.classList.contains('graphiql-tab-active') ? 'true' : 'false';
    setIfDifferent(tab, 'role', 'presentation');
    if (tab.hasAttribute('aria-selected')) tab.removeAttribute('aria-selected');
    const button = tab.querySelector('.graphiql-tab-button');
    if (button) {
      setIfDifferent(button, 'role', 'tab');
      setIfDifferent(button, 'aria-selected', selected);
    }
  }
}

/** Applies the repairs under `root` now and after every change GraphiQL makes; returns the disconnect. */
export function repairGraphiqlAccessibility(root: HTMLElement): () => void {
  repair(root);
  const observer = new MutationObserver(() => repair(root));
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['class', 'aria-selected', 'role'] });
  return () => observer.disconnect();
}
