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
static inline int tabula_curses_getch(void) { return wgetch(stdscr); }
static inline void tabula_curses_attr(int on, int a) { if (on) wattron(stdscr, a); else wattroff(stdscr, a); }
static inline int tabula_curses_lines(void) { return LINES; }
static inline int tabula_curses_cols(void) { return COLS; }
static inline void tabula_curses_locale(void) { setlocale(LC_ALL, ""); }
/* Keys as KEY_UP…, a 100 ms wait for one, and Esc taken alone after 50 ms of nothing behind it
   (ncurses waits a whole second by default, and the key after it merged with it). */
static inline void tabula_curses_setup(void) { keypad(stdscr, TRUE); wtimeout(stdscr, 100); set_escdelay(50); }
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
