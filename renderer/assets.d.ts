/** Stylesheets are bundled by Vite; importing one has no value. */
declare module '*.css';
/** An image imported by a module: Vite gives its URL (hashed, relative to the page). */
declare module '*.svg' {
  const url: string;
  export default url;
}
