// bigmont-test: once
/*
 * The tuning table (bignum/tuning.h) against the committed runs it cites:
 * every row's two figures are in the files it names (results/<cpu>/,
 * the first row of that name in core cycles, at that column), and the
 * side the row binds is the faster.  Every choice has a name BIGMONT_TUNE
 * knows and a default; rows name only choices of that list.  So a
 * binding without a committed measurement, or with one that does not
 * show it winning, fails here.
 */
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tuning.h"

namespace {

/* The core cycles of row `row` ("variant op", e.g. "adx mul") at column
 * `column` of the table it is in, from results/<dir>/<file>; -1 if no
 * such figure.  The column headings are the nearest line above starting
 * with "variant", "build", "tuning" or "product" and then "op". */
long figure(const std::string &dir, const std::string &file, const std::string &row, int column,
	    std::string *why)
{
	const std::string path = std::string(BIGMONT_SOURCE_DIR) + "/results/" + dir + "/" + file;
	std::ifstream in(path);
	if (!in) {
		*why = "cannot open " + path;
		return -1;
	}
	std::istringstream want(row);
	std::string want_name, want_op;
	want >> want_name >> want_op;
	std::vector<int> heads;
	std::string line;
	while (std::getline(in, line)) {
		std::istringstream ls(line);
		std::string name, op;
		ls >> name >> op;
		if ((name == "variant" || name == "build" || name == "tuning" || name == "product") &&
		    op == "op") {
			heads.clear();
			int h;
			while (ls >> h)
				heads.push_back(h);
			continue;
		}
		if (name != want_name || op != want_op || line.find("core cycles") == std::string::npos ||
		    line.find('%') != std::string::npos)
			continue;
		std::vector<long> v;
		long x;
		while (ls >> x)
			v.push_back(x);
		for (size_t i = 0; i < heads.size() && i < v.size(); i++)
			if (heads[i] == column)
				return v[i];
	}
	*why = "no '" + row + "' core cycles at " + std::to_string(column) + " in " + path;
	return -1;
}

std::set<std::string> choices()
{
	std::set<std::string> s;
#define CHOICE(C) s.insert(#C);
	BIG_TUNING_CHOICES(CHOICE)
#undef CHOICE
	return s;
}

TEST(Tuning, EveryRowIsACommittedMeasurementThatWins)
{
	const std::set<std::string> known = choices();
	int rows = 0;
#define ROW(VENDOR, fam, mod, CHOICE, dir, wf, wr, col, wc, lf, lr, lc)                        \
	{                                                                                      \
		rows++;                                                                        \
		const std::string ctx = std::string(#VENDOR) + " family " + #fam + " model " + \
					#mod + " " + #CHOICE;                                  \
		EXPECT_TRUE(known.count(#CHOICE)) << ctx << ": not a choice";                  \
		std::string why;                                                               \
		const long win = figure(dir, wf, wr, col, &why);                               \
		EXPECT_EQ(win, wc) << ctx << ": " << why;                                      \
		why.clear();                                                                   \
		const long lose = figure(dir, lf, lr, col, &why);                              \
		EXPECT_EQ(lose, lc) << ctx << ": " << why;                                     \
		EXPECT_LT(win, lose) << ctx << ": the bound side is not the faster";           \
	}
	BIG_TUNING_TABLE(ROW)
#undef ROW
	EXPECT_GT(rows, 0);
}

/* The reader itself: a figure that is not in a file is not found. */
TEST(Tuning, FigureReaderRefusesWhatIsNotThere)
{
	std::string why;
	EXPECT_EQ(figure("intel-r-xeon-r-processor-family6-model207", "2026-11-27-1838-kernels.txt",
			 "adx mul", 17, &why),
		  -1);
	EXPECT_NE(why.find("no 'adx mul'"), std::string::npos) << why;
	why.clear();
	EXPECT_EQ(figure("no-such-cpu", "none.txt", "adx mul", 16, &why), -1);
	EXPECT_NE(why.find("cannot open"), std::string::npos) << why;
	EXPECT_EQ(figure("intel-r-xeon-r-processor-family6-model207", "2026-11-27-1838-kernels.txt",
			 "adx mul", 16, &why),
		  713);
}

} // namespace
