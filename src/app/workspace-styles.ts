// The rest of Radix Themes' stylesheet (the components, colours and responsive utilities the
// sign-in page does not use: bin/radix-css.ts), loaded with the workspace.
import 'virtual:radix-workspace.css';
