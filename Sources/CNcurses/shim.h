#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncursesw/curses.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Function-like macros of curses.h that Swift cannot import, as functions. */
static inline int tabula_curses_pair(int n) { return (int)COLOR_PAIR(n); }
static inline int tabula_curses_bold(void) { return (int)A_BOLD; }
static inline int tabula_curses_reverse(void) { return (int)A_REVERSE; }
static inline int tabula_curses_dim(void) { return (int)A_DIM; }
/* A byte (or KEY_RESIZE) within `ms` milliseconds (0: only one already there), ERR if none. */
static inline int tabula_curses_getch_within(int ms) { wtimeout(stdscr, ms); return wgetch(stdscr); }
static inline void tabula_curses_attr(int on, int a) { if (on) wattron(stdscr, a); else wattroff(stdscr, a); }
static inline int tabula_curses_lines(void) { return LINES; }
static inline int tabula_curses_cols(void) { return COLS; }
static inline void tabula_curses_locale(void) { setlocale(LC_ALL, ""); }
/* The terminal's bytes as they come, and a 100 ms wait for one: the live view decodes its keys
   itself (TerminalKeys), so that an Esc and the key after it in one read are two keys, and what
   it read past the key that left goes to the prompt (curses would keep it, and drop it). */
static inline void tabula_curses_setup(void) { keypad(stdscr, FALSE); wtimeout(stdscr, 100); }
/* Follows the terminal's size as the kernel has it: curses learns of a resize only through its
   own SIGWINCH handler, which it does not install where another program's (readline's) is, and
   a second initscr keeps the first one's size. Resizes curses (a KEY_RESIZE comes) when they
   differ; 1 when it did. */
static inline int tabula_curses_follow_size(void) {
    struct winsize w;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) != 0 || w.ws_row == 0 || w.ws_col == 0) return 0;
    if (w.ws_row == LINES && w.ws_col == COLS) return 0;
    resizeterm(w.ws_row, w.ws_col);
    return 1;
}
