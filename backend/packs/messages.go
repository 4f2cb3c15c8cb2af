package packs

import "strings"

// details are the explanations added under a teacher's message, in both
// languages of the app.
var details = map[string]Text{
	"run.error":     {ZH: "程序出错停下了：{hint}", EN: "Your program stopped with an error: {hint}"},
	"run.timeout":   {ZH: "程序运行的时间太长了。", EN: "Your program took too long."},
	"run.status":    {ZH: "程序没有正常结束（{status}）。", EN: "Your program did not finish normally ({status})."},
	"run.printed":   {ZH: "你的程序打印了：{got}", EN: "Your program printed: {got}"},
	"run.nothing":   {ZH: "你的程序什么也没有打印。", EN: "Your program printed nothing."},
	"turtle.none":   {ZH: "程序没有用海龟画画。", EN: "Your program did not draw with the turtle."},
	"code.notrun":   {ZH: "这项检查没能运行。", EN: "This check could not run."},
	"source.syntax": {ZH: "Python 读不懂你的程序（第 {line} 行）。", EN: "Python could not read your program (line {line})."},
	"source.failed": {ZH: "没能检查程序的写法。", EN: "Could not look at how the program is written."},
}

func detail(key, lang string, vars map[string]string) string {
	s := details[key].In(lang)
	for k, v := range vars {
		s = strings.ReplaceAll(s, "{"+k+"}", v)
	}
	return s
}
