/// The page and its style sheet.
enum WebPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Tabula</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/static/tabula.css">
        </head>
        <body>
        <header>
          <a class="brand" href="/">Tabula</a>
          <nav>
            <a href="/settings">Settings</a><a href="/catalog">Catalog</a><a href="/items">Items</a><a href="/menu">Menu</a><a href="/server/clients">Clients</a><a href="/server/metrics">Metrics</a>
          </nav>
          <span id="notice" class="notice" role="status"></span>
          <span id="status" class="status connecting">connecting…</span>
          <span id="rev" class="rev"></span>
        </header>
        <main>
          <section id="view" aria-live="polite"></section>
          <aside>
            <h2>Changes</h2>
            <ol id="changes" reversed></ol>
          </aside>
        </main>
        <!--first--><script src="/static/tabula.js"></script>
        </body>
        </html>
        """#

    static let css = #"""
        :root { --ink: #1d2330; --muted: #6b7385; --line: #e3e6ee; --accent: #2f6fed; --bg: #f6f7fb; --card: #fff; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: var(--ink); background: var(--bg); }
        header { display: flex; align-items: center; gap: 18px; padding: 10px 20px; background: var(--card); border-bottom: 1px solid var(--line); }
        .brand { font-weight: 700; font-size: 18px; color: var(--ink); text-decoration: none; }
        nav a { margin-right: 14px; color: var(--muted); text-decoration: none; }
        nav a.current { color: var(--accent); font-weight: 600; }
        .notice { margin-left: auto; }
        .status { padding: 2px 10px; border-radius: 999px; font-size: 13px; }
        .status.live { background: #e3f6e8; color: #1b7a3a; }
        .status.offline { background: #fdeaea; color: #a12626; }
        .status.connecting { background: #eef1f7; color: var(--muted); }
        .rev { color: var(--muted); font-size: 13px; font-variant-numeric: tabular-nums; }
        main { display: grid; grid-template-columns: minmax(0, 1fr) 300px; gap: 20px; padding: 20px; max-width: 1200px; margin: 0 auto; }
        section, aside { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 14px 18px; }
        h1 { font-size: 20px; margin: 0 0 12px; }
        aside h2 { margin-top: 0; }
        h2 { font-size: 14px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 14px 0 6px; }
        table { width: 100%; border-collapse: collapse; table-layout: fixed; }
        td.num { width: 90px; }
        td:has(code) { width: 120px; }
        td, th { padding: 7px 6px; border-bottom: 1px solid var(--line); text-align: left; }
        th { font-size: 12px; color: var(--muted); font-weight: 600; text-transform: uppercase; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        tr.flash td { animation: flash 1.2s ease-out; }
        @keyframes flash { from { background: #fff4c2; } to { background: transparent; } }
        .fav { color: #e0a800; }
        .empty { color: var(--muted); font-style: italic; padding: 8px 6px; }
        .crumbs a, .drill { color: var(--accent); text-decoration: none; cursor: pointer; }
        .detail { margin-top: 14px; padding: 12px; border: 1px dashed var(--line); border-radius: 8px; }
        .options span { display: inline-block; margin: 2px 6px 2px 0; padding: 2px 10px; border-radius: 999px; border: 1px solid var(--line); }
        .options span.on { background: var(--accent); color: #fff; border-color: var(--accent); }
        .tabs span { display: inline-block; padding: 4px 12px; border: 1px solid var(--line); border-bottom: none; border-radius: 6px 6px 0 0; margin-right: 4px; }
        .columns { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }
        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 12px; }
        .card { display: block; padding: 14px; border: 1px solid var(--line); border-radius: 8px; color: var(--ink); text-decoration: none; }
        .card b { display: block; font-size: 26px; }
        #changes { margin: 0; padding-left: 0; list-style: none; font-size: 13px; max-height: 70vh; overflow: auto; }
        #changes li { margin: 3px 0; }
        #changes code { color: var(--muted); }
        .note { color: var(--muted); font-size: 13px; margin-top: 8px; }
        button { font: inherit; padding: 2px 9px; border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--ink); cursor: pointer; }
        button:hover:not(:disabled) { border-color: var(--accent); color: var(--accent); }
        button:disabled { opacity: .35; cursor: default; }
        button.opt { border-radius: 999px; margin: 2px 6px 2px 0; }
        button.opt.on, .opt.on { background: var(--accent); color: #fff; border-color: var(--accent); }
        span.opt { display: inline-block; margin: 2px 6px 2px 0; padding: 2px 10px; border-radius: 999px; border: 1px solid var(--line); }
        button.star { border: none; background: none; font-size: 17px; padding: 0 4px; color: var(--muted); }
        button.star.fav { color: #e0a800; }
        button.entry { border: none; background: none; padding: 0; color: var(--accent); text-align: left; }
        td.star-cell { width: 34px; }
        td.tools { width: 150px; white-space: nowrap; text-align: right; }
        td.tools button { margin-left: 3px; padding: 1px 7px; }
        .toolbar { display: flex; gap: 12px; align-items: center; margin-bottom: 6px; flex-wrap: wrap; }
        .toolbar input, form.edit input { font: inherit; padding: 2px 6px; border: 1px solid var(--line); border-radius: 6px; }
        tr.picked td { background: #eef3ff; }
        tr.newest td { font-weight: 600; }
        .notice { font-size: 13px; max-width: 40%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .notice.done { color: #1b7a3a; }
        .notice.conflict, .notice.error { color: #a12626; }
        .tabs span { cursor: pointer; }
        .tabs span.on { background: var(--accent); color: #fff; }
        .tab-body { padding: 10px; border: 1px solid var(--line); margin-top: 0; }
        figure.image { margin: 10px 0; }
        figure.image .frame { display: flex; align-items: center; justify-content: center; width: 100%; max-width: 240px; height: 120px; padding: 8px; text-align: center; font-size: 13px; color: var(--muted); background: var(--bg); border: 1px dashed var(--muted); border-radius: 8px; }
        figure.image figcaption { margin-top: 4px; }
        td.time { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; width: 13em; }
        table.server td { overflow-wrap: anywhere; }
        table.server td.num { width: auto; }
        /* The clients' eight columns: as wide as their headers, in a box that scrolls sideways
           where the page is narrower (a phone), the page itself never. */
        .wide { overflow-x: auto; }
        table.clients { table-layout: auto; }
        table.clients th, table.clients td { white-space: nowrap; overflow-wrap: normal; }
        @media (max-width: 800px) { main { grid-template-columns: minmax(0, 1fr); } .columns { grid-template-columns: 1fr; } }
        /* A phone (360 px and up): the header wraps, the nav scrolls, and the items lose the serial
           so that the price, the star and every button stay on screen. */
        @media (max-width: 600px) {
          header { flex-wrap: wrap; gap: 6px 12px; padding: 8px 10px; }
          nav { order: 3; width: 100%; overflow-x: auto; white-space: nowrap; }
          .notice { order: 4; max-width: 100%; margin-left: 0; }
          main { padding: 8px; gap: 8px; }
          section, aside { padding: 10px 8px; }
          td, th { padding: 6px 3px; }
          td.num { width: 52px; }
          td:has(code) { display: none; }
          td.tools { width: 98px; }
          td.tools button { margin-left: 1px; padding: 1px 5px; }
          td.time { width: 6.5em; }
          .toolbar form input[name="name"] { width: 9em; }
        }
        """#
}
